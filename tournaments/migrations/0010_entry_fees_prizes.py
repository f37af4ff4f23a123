from decimal import Decimal

import django.core.validators
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0009_round_clock"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="entry_fee",
            field=models.DecimalField(
                decimal_places=2,
                default=Decimal("0"),
                max_digits=7,
                validators=[django.core.validators.MinValueValidator(Decimal("0"))],
                verbose_name="entry fee (€)",
            ),
        ),
        migrations.AddField(
            model_name="competitor",
            name="payment_status",
            field=models.CharField(
                choices=[("unpaid", "Not paid"), ("paid", "Paid"), ("free", "Free entry")],
                default="unpaid",
                max_length=8,
                verbose_name="entry fee",
            ),
        ),
        migrations.AddField(
            model_name="competitor",
            name="payment_method",
            field=models.CharField(
                blank=True,
                choices=[("cash", "Cash"), ("card", "Card"), ("transfer", "Transfer")],
                default="",
                max_length=8,
                verbose_name="payment method",
            ),
        ),
        migrations.AddField(
            model_name="competitor",
            name="amount_paid",
            field=models.DecimalField(
                decimal_places=2, default=Decimal("0"), max_digits=7, verbose_name="amount paid (€)"
            ),
        ),
        migrations.CreateModel(
            name="Prize",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("rank_from", models.PositiveSmallIntegerField(verbose_name="from rank")),
                ("rank_to", models.PositiveSmallIntegerField(verbose_name="to rank")),
                ("text", models.CharField(max_length=200, verbose_name="lot")),
                (
                    "value",
                    models.DecimalField(
                        blank=True, decimal_places=2, max_digits=8, null=True, verbose_name="value (€)"
                    ),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="prizes",
                        to="tournaments.tournament",
                    ),
                ),
            ],
            options={
                "verbose_name": "lot",
                "verbose_name_plural": "lots",
                "ordering": ["tournament", "rank_from"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("rank_to__gte", models.F("rank_from"))), name="prize_ranks_ordered"
                    ),
                    models.CheckConstraint(condition=models.Q(("rank_from__gte", 1)), name="prize_rank_from_positive"),
                ],
            },
        ),
    ]
